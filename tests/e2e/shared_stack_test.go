//go:build !failover

package e2e

// withSharedStack: the suite's tests use the shared stack TestMain starts.
// Built with the tag `failover` (the ctest test `failover`), the package
// runs only the failover tests, which start their own clusters and stacks.
const withSharedStack = true
