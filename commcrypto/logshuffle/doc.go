// Package logshuffle is a zero-knowledge shuffle argument of logarithmic
// size for the shuffle passes of mentalmj: given the input deck D (N
// ristretto255 elements), the output deck D' and the key commitment
// K = k·G, the prover knows k and a permutation ψ with
//
//	D'_i = k·D_{ψ(i)}   for every i,   and   K = k·G.
//
// A proof is 32·(47 + 3f) bytes: 2 368 for N = 136 and 2 176 for N = 108
// (the linear-size argument of commcrypto/shuffleproof: 22 048 and
// 17 568). SPEC.md §12.1 specifies it byte for byte.
//
// # Construction
//
// The argument is Curdleproofs (G. Kadianakis, M. Maller, A. Novakovic,
// S. Chunhapanya, "Curdleproofs", the shuffle argument of Ethereum's Whisk,
// 2022; the technical note doc/curdleproofs.pdf and the argument notes
// doc/*.md of github.com/asn-d6/curdleproofs), specialised: Curdleproofs
// shuffles pairs (R_i, S_i) to (T_i, U_i) = k·(R_σ(i), S_σ(i)); here the
// single deck D takes the place of R, and the public K = k·G takes the
// place of the hidden com_U, so the same-scalar argument ties the
// shuffle's k to K. Its parts, in the names of the Curdleproofs notes:
//
//  1. Shuffle, step 1. M = Σ ψ(i)·G_i + Σ r_M,j·H_j commits to the
//     permutation; the challenges a_0..a_{ℓ−1} are drawn after M and the
//     whole statement.
//  2. Shuffle, step 2, and SamePerm. A = Σ a_ψ(i)·G_i + Σ r_A,j·H_j
//     commits to the permuted challenges. With challenges α, β the vector
//     b = ψ(a) + α·ψ + β·1 is committed in A + α·M + β·ΣG_i, and its grand
//     product equals Π (a_i + i·α + β) iff (by Neff's polynomial identity,
//     Neff, ACM CCS 2001) A and M hold the same permutation of a and of
//     0..ℓ−1, except with probability about ℓ/|group|.
//  3. GrandProduct. C commits to c = (1, b_0, b_0·b_1, …); with the
//     rescaled bases G'_i = θ^−(i+1)·G_i the product becomes one inner
//     product <c ‖ r_C, d ‖ r_D> = p·θ^ℓ + r_p·θ^(ℓ+1) − 1, proved by
//  4. DLInner, the discrete-logarithm inner-product argument of Bootle,
//     Cerulli, Chaidos, Groth and Petit (EUROCRYPT 2016, §3) with the
//     inner product carried in the commitment as in Bulletproofs (Bünz et
//     al., IEEE S&P 2018, §3, Protocol 2), made zero-knowledge by first
//     randomising the witness with blinders r_c, r_d such that
//     <r_c, d> + <r_d, c> = <r_c, r_d> = 0 (Curdleproofs DLInner,
//     "Full Zero-Knowledge", step 1).
//  5. SameScalar. (T_1, T_2) = (r_T·G_T, k·R + r_T·H), R = Σ a_j·D_j,
//     and K = k·G share k: a Σ-protocol with responses z_k, z_t.
//  6. SameMultiScalar. A + T_1 and T_2 open to the same vector
//     x' = ψ(a) ‖ r_A ‖ r_T under the bases G ‖ H_0..H_2 ‖ G_T and
//     D' ‖ 0 ‖ H, by the same halving recursion, blinded first.
//
// Together: Σ_i a_ψ(i)·D'_i = k·Σ_j a_j·D_j for a drawn after ψ is bound,
// which fails to imply D'_i = k·D_ψ(i) for all i with probability ≤ 1/ℓ
// (a non-zero linear form into a group of prime order ℓ).
//
// # Padding and sizes
//
// The vectors have n = 16·⌈(N + 4)/16⌉ entries (144 for N = 136, 112 for
// N = 108): ℓ = n − 4 deck positions, the last ℓ − N padding (the
// identity in D and D', ψ the identity there), and 4 blinding
// coordinates (Curdleproofs' n_bl = 4). Both recursions run Rounds = 4
// halving rounds and stop at vectors of length f = n/16 (9 and 7), which
// the prover sends (Bootle et al. §3 allow the recursion to stop at any
// length). Since the real elements of D, D' and K are never the identity
// (decoding refuses it), a ψ that moved a real position to the padding
// would make a real output element the identity: ψ maps the padding to
// itself.
//
// # Fiat–Shamir
//
// Challenges come from a commcrypto/transcript.Transcript (SPEC.md §11)
// bound to the protocol version, game id, hand, pass and prover, then N,
// the decks and K, then each message of the prover in order (SPEC.md
// §12.1 lists the labels).
//
// # Verification
//
// Verify folds the seven equations into one linear combination of
// n + 2N + 8·Rounds + 21 points, weighted by challenges drawn after the
// whole proof: the n + 3 fixed generators' part is summed on a table of
// their precomputed multiples (commcrypto/msm.Table, no doublings), the
// rest with one multi-scalar multiplication (commcrypto/msm). The folded generators are
// never computed: generator k enters with the product of the round
// challenges of the halves it lay in (Bulletproofs §3.1). Batch combines
// several proofs with independent random weights into one multi-scalar
// multiplication and, when the sum fails, names exactly the proofs that
// fail alone.
//
// # Prover
//
// The prover never folds generators either: each cross term L, R of a
// round is one sum over the original generators weighted by the
// challenges so far, evaluated on the table of the generators' multiples
// (commcrypto/msm.Table); a proof costs about 40 such sums of 70–144
// points and no variable-base scalar multiplication by a secret.
//
// # Timing
//
// Those multi-scalar multiplications are variable-time (commcrypto/msm)
// in scalars that depend on the witness. This is a deliberate trade for
// speed against a remote peer, who sees only the total time of a pass;
// k itself is multiplied only with circl's constant-time Mul.
//
// # Encoding
//
// SPEC.md §12.1 and Proof.layout give the order of the 47 + 3f values;
// elements are canonical RFC 9496 encodings other than the identity,
// scalars 32-byte little-endian canonical. Decode accepts exactly
// Size(N) bytes.
package logshuffle
