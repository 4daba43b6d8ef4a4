#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import BadgeCLI

exit(BadgeCLI.main(CommandLine.arguments))
