// Package pb holds the generated protobuf type of a table's settings
// (settings.proto), the wire form package riichi/settings encodes and decodes.
// Do not edit settings.pb.go by hand.
package pb

//go:generate protoc --go_out=. --go_opt=paths=source_relative settings.proto
