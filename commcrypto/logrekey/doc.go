// Package logrekey is a compact zero-knowledge argument that a rekey pass
// of mentalmj is honest: given the key commitment K = k·G, the wall
// before the pass C, the wall after it C' and the commitments R (N
// elements each), the prover knows s_0..s_{N−1} with
//
//	C'_i = s_i·C_i   and   R_i = s_i·K   for every i,
//
// in 32·(1 + 2r + f) bytes with N = f·2^r, r ≤ 4 the number of trailing
// zero bits of N: 768 bytes for N = 136 (r = 3, f = 17) and 1 024 for
// N = 108 (r = 2, f = 27), against 32·(2N + 1) (8 736 and 6 944) for the
// batched Chaum–Pedersen argument of commcrypto/rekeyproof. SPEC.md §13.1
// specifies it byte for byte.
//
// # Construction
//
//  1. Batching. Weights ρ_0..ρ_{N−1}, ρ'_0..ρ'_{N−1} are drawn after the
//     whole statement. With the bases U_i = ρ_i·C_i + ρ'_i·K and
//     P = Σ ρ_i·C'_i + Σ ρ'_i·R_i the N discrete-log equalities become one
//     statement: the prover knows x with <x, U> = P (x = s). This is the
//     random linear combination of the small-exponents batch test
//     (Bellare, Garay, Rabin, EUROCRYPT 1998), applied to the statement
//     rather than to the verification equations. The two weight vectors
//     must be independent: with one vector, swapping two positions'
//     outputs would pass.
//  2. Compression. Knowledge of an opening of P under U is proved with
//     the compressed Σ-protocol of Attema and Cramer ("Compressed
//     Σ-Protocol Theory and Practical Application to Plug & Play Secure
//     Algorithmics", CRYPTO 2020, §3: a blinded Σ-protocol whose long
//     response is then proved with the folding argument of Bulletproofs,
//     Bünz et al., IEEE S&P 2018, §3): the prover sends B = <r, U> for a
//     random r, gets μ and folds x* = r + μ·x with r halving rounds
//     L = <x_lo, U_hi>, R = <x_hi, U_lo>, x ← x_lo + δ⁻¹·x_hi; it then
//     sends the f remaining scalars (the recursion may stop at any length:
//     Bootle et al., EUROCRYPT 2016, §3).
//
// # Soundness
//
// This is an argument, computationally sound under the discrete-log
// assumption for K and the input wall: the extractor of the compressed
// Σ-protocol yields, for random (ρ, ρ'), some x with
// Σ x_i·(ρ_i·C_i + ρ'_i·K) = Σ ρ_i·C'_i + ρ'_i·R_i. Write
// C'_i = s_i·C_i + E_i with s_i the discrete log of R_i to the base K. If
// a prover that knows no discrete-log relation among C_0..C_{N−1} and K
// (they are secret multiples of distinct tile points, hashed to the group
// with no known relation, SPEC.md §3) succeeds with some E_i ≠ 0 it knows
// a representation E_i = Σ_m λ_{i,m}·C_m, and matching coefficients gives
// ρ_m·x_m = ρ_m·s_m + Σ_i ρ_i·λ_{i,m} and Σ_m ρ'_m·(x_m − s_m) = 0, i.e. a
// non-zero polynomial of degree ≤ N + 1 in (ρ, ρ') vanishes, which happens
// with probability ≤ (N + 1)/ℓ (Schwartz–Zippel). Otherwise it computes a
// discrete-log relation. docs/DESIGN.md gives the argument in full.
//
// # Zero knowledge
//
// x* = r + μ·s with r uniform, so every folded vector and the f scalars
// sent are uniform; the cross terms are determined by them and the
// statement (honest-verifier zero knowledge, Attema–Cramer §3).
//
// # Verification
//
// One multi-scalar multiplication of 3N + 2r + 2 points: B, the L and R,
// C', R and C (with the folded weights of commcrypto/internal/fold) and K.
package logrekey
