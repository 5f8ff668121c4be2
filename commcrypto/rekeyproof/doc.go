// Package rekeyproof is the non-interactive zero-knowledge argument that a
// rekey pass of mentalmj is honest: given the player's key commitment
// K = k·G (published with its shuffle pass), the wall before the pass C,
// the wall after it C' and the per-position commitments R (n elements
// each), the prover knows scalars s_1..s_n with
//
//	C'_i = s_i·C_i   and   R_i = s_i·K   for every i.
//
// For an honest pass s_i = r_i·k⁻¹, so R_i = r_i·G: the commitment to the
// position key that later opens position i, and C'_i carries r_i in place
// of k. Each position is a discrete-log equality: Chaum and Pedersen,
// "Wallet Databases with Observers" (CRYPTO 1992, section 3.2).
//
// # Construction
//
// n Chaum–Pedersen proofs share one challenge e, and the n second
// equations are aggregated by weights the prover cannot foresee:
//
//  1. the prover sends A_i = w_i·C_i for random w_i;
//  2. weights β_1..β_n are drawn from the transcript (Fiat–Shamir);
//  3. the prover sends B = (Σ β_i·w_i)·K;
//  4. the challenge e is drawn; the prover sends z_i = w_i + e·s_i.
//
// The verifier checks z_i·C_i = A_i + e·C'_i for every i, and
// (Σ β_i·z_i)·K = B + e·Σ β_i·R_i.
//
// # Soundness
//
// From two accepting transcripts with the same A, β, B and challenges
// e ≠ e', the first equations give s_i = (z_i − z'_i)/(e − e') with
// C'_i = s_i·C_i, and this s_i is the only such scalar because C_i is not
// the identity in a group of prime order. The second gives
// Σ β_i·(s_i·K − R_i) = 0 for β drawn after C, C', R and K are fixed; if
// any R_i ≠ s_i·K this holds with probability ≤ 1/ℓ. So a false statement
// is accepted with probability ≤ 2/ℓ < 2^−250 per random-oracle query, at
// most 2^−186 after 2^64 queries: far below 2^−128.
//
// # Fiat–Shamir
//
// A commcrypto/transcript.Transcript bound to the protocol version, game
// id, hand number, pass index and prover peer ID hashes n, K, every C_i,
// every C'_i and every R_i, then A (→ β), then B (→ e).
//
// # Verification
//
// Verify folds all n + 1 equations into one multi-scalar multiplication of
// 4n + 2 points (commcrypto/msm), weighting the i-th first equation by ρ_i
// and the aggregate by γ, drawn from the transcript after the responses.
// A false equation survives with probability ≤ 1/ℓ.
//
// # Encoding
//
// A Proof for n positions is A_1..A_n ‖ B ‖ z_1..z_n: (2n + 1) 32-byte
// values, elements in the canonical RFC 9496 encoding (identity
// rejected), scalars canonical little-endian mod ℓ. For n = 136 that is
// 8 736 bytes; Decode accepts exactly that length.
package rekeyproof
