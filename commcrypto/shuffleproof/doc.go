// Package shuffleproof is the non-interactive zero-knowledge argument that
// a shuffle pass of mentalmj is honest: given the input deck D (n
// ristretto255 elements), the output deck D' and the published key
// commitment K = k·G, the prover knows k and a permutation ψ with
//
//	D'_i = k·D_{ψ(i)}   for every i,   and   K = k·G.
//
// This is the shuffle of exponentiated elements of Neff ("A Verifiable
// Secret Shuffle and its Application to E-Voting", ACM CCS 2001): an SRA /
// Pohlig–Hellman shuffle pass D ← π(k·D).
//
// # Construction
//
// The argument is the proof of a shuffle of Terelius and Wikström ("Proofs
// of Restricted Shuffles", AFRICACRYPT 2010, section 3 and the protocol of
// section 4 for the unrestricted case), in the form written out by Haenni,
// Locher, Koenig and Dubuis ("Pseudo-Code Algorithms for Verifiable
// Re-Encryption Mix-Nets", Financial Cryptography 2017 Workshops, LNCS
// 10323, Algorithms 4.4 and 4.5), with the re-encryption relation replaced
// by the exponentiation relation. The prover
//
//  1. commits to the permutation matrix column by column with Pedersen
//     commitments c_{ψ(i)} = r_{ψ(i)}·G + H_i, where H, H_1..H_n are
//     independent generators hashed to the group (NewParams);
//
//  2. receives challenges u_1..u_n (Fiat–Shamir) and sets u'_i = u_{ψ(i)};
//
//  3. proves with one Σ-protocol (challenge c) knowledge of openings such
//     that Σ c_j − Σ H_i opens to 0 (each row of the matrix sums to 1),
//     the chain ĉ_0 = H, ĉ_i = r̂_i·G + u'_i·ĉ_{i−1} ends at
//     ĉ_n = r̂·G + (Π u_i)·H (so Π u'_i = Π u_i), Σ u_j·c_j opens to
//     (u'_1..u'_n), and — the exponentiation statement in place of the
//     re-encryption one —
//
//     Σ u'_i·D'_i = k·Σ u_j·D_j   with   K = k·G,
//
//     using one set of responses s'_i = ω'_i + c·u'_i in all of them.
//
// The first three facts make the committed matrix a permutation matrix
// (Terelius–Wikström, Theorem 1: a matrix whose rows sum to 1 and whose
// product of linear forms Π_i (M·u)_i equals Π_i u_i, for random u, is a
// permutation matrix except with probability ≤ n/ℓ). The last then gives
// Σ_j u_j·(D'_{ψ⁻¹(j)} − k·D_j) = 0 for random u_j chosen after D, D', K
// and the permutation commitment are fixed, which fails to imply
// D'_i = k·D_{ψ(i)} for all i with probability ≤ 1/ℓ, since a non-zero
// linear form on Z_ℓ^n into a group of prime order ℓ has a kernel of
// index ℓ.
//
// # Soundness
//
// ℓ ≈ 2^252. The Σ-protocol is special sound with challenge space Z_ℓ;
// with the n/ℓ and 1/ℓ terms above a cheating prover succeeds with
// probability at most (n + 3)/ℓ < 2^−243 per random-oracle query for
// n = 136, so at most 2^−179 after 2^64 queries, well below 2^−128.
// Binding of the Pedersen commitments rests on the discrete logarithm
// problem in ristretto255 between G and the hashed generators, which
// nobody knows.
//
// # Fiat–Shamir
//
// Challenges come from a commcrypto/transcript.Transcript bound to the
// protocol version, game id, hand number, pass index and prover peer ID,
// over n, every input element, every output element and K, then the
// permutation commitments (→ u_1..u_n), then every first message (→ c).
//
// # Verification
//
// Verify folds all n + 5 group equations into one multi-scalar
// multiplication of 6n + 8 points with weights drawn from the transcript
// after the responses (a random linear combination: a false equation
// survives with probability ≤ 1/ℓ per query), computed with the bucket
// method of commcrypto/msm.
//
// # Encoding
//
// A Proof encodes as (5n + 9) 32-byte values, n = len(D):
//
//	c_1..c_n ‖ ĉ_1..ĉ_n ‖ t_1 ‖ t_2 ‖ t_3 ‖ t_4 ‖ t_5 ‖ t̂_1..t̂_n ‖
//	s_1 ‖ s_2 ‖ s_3 ‖ s_4 ‖ ŝ_1..ŝ_n ‖ s'_1..s'_n
//
// elements in the canonical ristretto255 encoding of RFC 9496 (identity
// rejected), scalars little-endian canonical mod ℓ (RFC 9496 section 4.4).
// For n = 136 that is 22 048 bytes. Decode accepts exactly that length
// and nothing else.
//
// # Timing
//
// The prover's commitments t_3 and t_4 use the variable-time bucket
// multi-scalar multiplication with secret nonces; every other
// multiplication by a secret is circl's constant-time one. This is a
// deliberate trade for speed against a remote peer, who sees only the
// total time of a pass.
package shuffleproof
