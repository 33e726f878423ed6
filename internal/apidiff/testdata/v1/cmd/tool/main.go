// Command tool is a program: its changes are no API change.
package main

// Onlyv1 differs between the versions.
func Onlyv1() {}

func main() {}
