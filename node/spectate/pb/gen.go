// Package pb holds the generated protobuf types of a table's spectator
// topic and watch link (spectate.proto). Do not edit spectate.pb.go by
// hand.
package pb

//go:generate protoc -I . --go_out=. --go_opt=paths=source_relative spectate.proto
