package main

var tenhouCommand = command{name: "tenhou", summary: "reproduce and verify Tenhou walls and logs", run: notYet("tenhou")}
