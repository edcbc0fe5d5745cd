//go:build failover

package e2e

// withSharedStack: see shared_stack_test.go.
const withSharedStack = false
