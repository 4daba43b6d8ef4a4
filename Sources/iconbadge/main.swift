import BadgeCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(BadgeCLI.main(CommandLine.arguments))
