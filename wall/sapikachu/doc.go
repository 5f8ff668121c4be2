// Package sapikachu implements the server-side "verifiably non-riggable
// shuffle" proposed by SAPikachu for online mahjong (gist
// SAPikachu/2ea9ce5ac0d258b571d8036007d66d9c): the server cannot pick a
// wall because published secrets enter the seed, players cannot predict
// it because server randomness does, and afterwards anyone can recompute
// the wall from the record.
//
// The proposal leaves the encodings open; this package fixes them as
// follows (scheme "sapikachu-v1"):
//
//   - T1 (match start) and T2 (kyoku start) are Unix times in milliseconds,
//     each encoded as an 8-byte big-endian unsigned integer.
//   - R (per-kyoku server randomness) is exactly 32 bytes; each player
//     secret PS_i is exactly 32 bytes; the global secret GS is exactly 128
//     bytes (1024 bits). There are 1 to 4 player secrets, in seat order.
//   - msg  = T1 ∥ T2 ∥ R                                   (48 bytes)
//     seed = SHA-512(msg ∥ HMAC-SHA512(GS, msg) ∥ HMAC-SHA512(PS_0, msg)
//     ∥ … ∥ HMAC-SHA512(PS_{n-1}, msg))                     (64 bytes)
//     HMAC is RFC 2104 with SHA-512 (GS, 128 bytes, is one full block and
//     is used as the key unchanged).
//   - ChaCha20 is RFC 7539 §2.4 (golang.org/x/crypto/chacha20) with
//     key = seed[0:32], nonce = seed[32:44] and initial block counter =
//     little-endian uint32 of seed[44:48] with its top bit cleared (so at
//     least 2^31 blocks remain and the 32-bit counter never wraps);
//     seed[48:64] is not used.
//   - The output stream is the ChaCha20 keystream (the encryption of zero
//     bytes) XORed byte-wise with GS repeated: out[k] = ks[k] ⊕ GS[k mod 128],
//     k counted from the first keystream byte.
//   - Words are consecutive 4-byte little-endian uint32 values of out.
//   - The yama starts as the Tenhou ids 0..135 in order and is shuffled by
//     Fisher–Yates from the top: for i = 135 down to 1, j is uniform in
//     0..i and yama[i], yama[j] are swapped. A uniform value in 0..n-1 is
//     drawn by rejection: take words w until w < 2^32 − (2^32 mod n), then
//     j = w mod n. yama[i] then has the meaning of docs/wall-layout.md §5.
//
// A Record holds every input and output, byte strings hex-encoded, so
// Verify can recompute the seed and the yama.
package sapikachu
