package main

var auditCommand = command{name: "audit", summary: "re-verify a saved transcript offline", run: notYet("audit")}
