// Command coredns is the test cluster's DNS server: CoreDNS with only the plugins the real
// node's Corefile uses. Importing the full plugin set (core/plugin) would pull every cloud
// provider SDK into the build and double its cold build time for nothing.
package main

import (
	"github.com/coredns/coredns/coremain"

	// Plugins register themselves with the server in their init functions.
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/forward"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
)

func main() {
	coremain.Run()
}
