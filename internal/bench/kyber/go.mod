module github.com/mentalmj/mentalmj/internal/bench/kyber

go 1.26.8

require (
	github.com/mentalmj/mentalmj v0.0.0
	go.dedis.ch/kyber/v4 v4.0.2
)

replace github.com/mentalmj/mentalmj => ../..
