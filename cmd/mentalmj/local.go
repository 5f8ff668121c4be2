package main

var localCommand = command{name: "local", summary: "run four bot nodes as four processes on this machine", run: notYet("local")}
