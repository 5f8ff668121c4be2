// Package pb holds the generated protobuf types of the invite and the
// meeting protocol (invite.proto). Do not edit invite.pb.go by hand.
package pb

//go:generate protoc -I . -I ../../.. --go_out=. --go_opt=paths=source_relative invite.proto
