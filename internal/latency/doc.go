// Package latency emulates the network between players who sit far apart,
// so that anyone can see and measure how a table feels across the world
// on one machine.
//
// The model is one delay per direction of a link: a Link of a one-way
// delay (half the round-trip time) and a jitter. Each message, or each
// chunk of a byte stream, sent at time t is delivered at
//
//	max(t + OneWay + u, previous delivery on the same direction)
//
// with u drawn uniformly from [−Jitter, +Jitter] (and the delay never
// below 0). The max keeps order: jitter never reorders the messages of a
// connection or the bytes of a TCP stream, as a real TCP connection never
// does either (a late segment holds back the ones behind it). Bandwidth
// and loss are not emulated.
//
// A Schedule assigns the delivery times of one direction. The protocol's
// in-memory network (package protocol/memnet) uses it to delay messages in
// tests and benchmarks; a Forwarder uses it to delay real TCP connections
// between local processes (`mentalmj local --rtt 100ms --jitter 20ms`).
package latency
