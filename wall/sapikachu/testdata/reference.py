#!/usr/bin/env python3
"""Independent reference for the sapikachu-v1 encoding (see ../doc.go).

Written from the package documentation only, with Python's hashlib/hmac
and the `cryptography` package's ChaCha20 (16-byte nonce = 4-byte
little-endian counter || 12-byte nonce). Prints vectors.json to stdout:
    python3 reference.py > vectors.json
"""
import hashlib
import hmac
import json

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms


def seed_of(t1, t2, r, gs, secrets):
    msg = t1.to_bytes(8, "big") + t2.to_bytes(8, "big") + r
    parts = [msg, hmac.new(gs, msg, hashlib.sha512).digest()]
    parts += [hmac.new(ps, msg, hashlib.sha512).digest() for ps in secrets]
    return hashlib.sha512(b"".join(parts)).digest()


def yama_of(seed, gs):
    key, nonce = seed[0:32], seed[32:44]
    counter = int.from_bytes(seed[44:48], "little") & 0x7FFFFFFF
    enc = Cipher(algorithms.ChaCha20(key, counter.to_bytes(4, "little") + nonce), mode=None).encryptor()
    ks = enc.update(bytes(64 * 64))
    out = bytes(b ^ gs[k % 128] for k, b in enumerate(ks))
    words = (int.from_bytes(out[4 * i:4 * i + 4], "little") for i in range(len(out) // 4))
    yama = list(range(136))
    for i in range(135, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        while True:
            w = next(words)
            if w < limit:
                break
        j = w % n
        yama[i], yama[j] = yama[j], yama[i]
    return yama, counter


vectors = []
for case in range(4):
    t1 = 1700000000000 + case
    t2 = 1700000123456 + 1000 * case
    r = bytes((k + 17 * case) & 0xFF for k in range(32))
    gs = bytes((7 * k + 3 + case) & 0xFF for k in range(128))
    players = [4, 3, 1, 2][case]
    secrets = [hashlib.sha256(f"player {i} case {case}".encode()).digest() for i in range(players)]
    seed = seed_of(t1, t2, r, gs, secrets)
    yama, counter = yama_of(seed, gs)
    vectors.append({
        "t1_ms": t1, "t2_ms": t2, "r": r.hex(), "gs": gs.hex(),
        "player_secrets": [s.hex() for s in secrets],
        "seed": seed.hex(), "yama": yama,
        "counter_top_bit_set": bool(seed[47] & 0x80),
    })
print(json.dumps(vectors, indent=1))
