// Package extra is added in v2.
package extra

// Helper does nothing.
func Helper() {}
