// Package pb holds the generated protobuf types of the lobby's
// announcement (lobby.proto). Do not edit lobby.pb.go by hand.
package pb

//go:generate protoc -I . -I ../../.. --go_out=. --go_opt=paths=source_relative lobby.proto
