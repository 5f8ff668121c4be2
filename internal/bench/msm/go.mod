module github.com/mentalmj/mentalmj/internal/bench/msm

go 1.26.8

require (
	github.com/cloudflare/circl v1.6.5
	github.com/mentalmj/mentalmj v0.0.0
)

require filippo.io/edwards25519 v1.2.0

require (
	github.com/bwesterb/go-ristretto v1.2.4 // indirect
	github.com/gtank/ristretto255 v0.1.2
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/mentalmj/mentalmj => ../..
