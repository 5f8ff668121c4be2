package main

var joinCommand = command{name: "join", summary: "play hands at a table with three other peers", run: notYet("join")}
