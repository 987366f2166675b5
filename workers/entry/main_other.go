//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says where the entry runs: it is a Worker, built with GOOS=js
// GOARCH=wasm and started by workerd or Cloudflare (make run-worker).
func main() {
	fmt.Fprintln(os.Stderr, "workers/entry is a Cloudflare Worker: build it with GOOS=js GOARCH=wasm (make worker) and run it with make run-worker")
	os.Exit(2)
}
