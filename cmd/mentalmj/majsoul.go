package main

var majsoulCommand = command{name: "majsoul", summary: "verify a Mahjong Soul wall commitment", run: notYet("majsoul")}
