// Placeholder until its issue lands: it only explains itself.
let arguments = CommandLine.arguments.dropFirst()
print("usage: replay [--help]")
print("  Not implemented yet in this build.")
