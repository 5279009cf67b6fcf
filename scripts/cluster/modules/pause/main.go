// Command pause is the real node's pod sandbox image: it holds the pod's namespaces open until
// the kubelet stops the pod. No image registry is reachable from the test cluster, so the node
// cannot pull the usual pause image; this static binary is wrapped into a local image instead.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// version is what `pause --version` prints; scripts/cluster/build.sh checks it to decide whether
// the cached binary is current. Bump it (and PAUSE_VERSION in scripts/cluster/lib.sh) on change.
const version = "stackwright-pause 1"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(version)
		return
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	// With a shared PID namespace the sandbox is PID 1 and inherits orphans: reap them.
	children := make(chan os.Signal, 1)
	signal.Notify(children, syscall.SIGCHLD)
	for {
		select {
		case <-stop:
			return
		case <-children:
			reap()
		}
	}
}

func reap() {
	for {
		pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}
