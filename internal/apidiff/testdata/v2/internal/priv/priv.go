// Package priv is internal: its changes are no API change.
package priv

// Onlyv2 differs between the versions.
func Onlyv2() {}
