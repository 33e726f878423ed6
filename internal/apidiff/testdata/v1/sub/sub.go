// Package sub is removed in v2.
package sub

// Helper does nothing.
func Helper() {}
