package main

var sapikachuCommand = command{name: "sapikachu", summary: "deal and verify walls of the ChaCha20 server scheme", run: notYet("sapikachu")}
