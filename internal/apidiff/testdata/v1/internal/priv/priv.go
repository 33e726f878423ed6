// Package priv is internal: its changes are no API change.
package priv

// Onlyv1 differs between the versions.
func Onlyv1() {}
