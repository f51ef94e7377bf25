// Placeholder until its issue lands: it only explains itself.
let arguments = CommandLine.arguments.dropFirst()
print("usage: login-demo [--help]")
print("  Not implemented yet in this build.")
