// Package pb holds the generated protobuf types of the Mental Mahjong wire
// format (mentalmj.proto). Do not edit mentalmj.pb.go by hand.
package pb

//go:generate protoc -I . -I ../.. --go_out=. --go_opt=paths=source_relative mentalmj.proto
