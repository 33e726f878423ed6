// Command tool is a program: its changes are no API change.
package main

// Onlyv2 differs between the versions.
func Onlyv2() {}

func main() {}
