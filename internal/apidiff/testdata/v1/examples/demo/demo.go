// Package demo is an example: its changes are no API change.
package demo

// Onlyv1 differs between the versions.
func Onlyv1() {}
