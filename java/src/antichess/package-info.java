/**
 * The 6.170 antichess handout's machine player, {@link antichess.MachinePlayer},
 * backed by the antichess engine binary, with the unchecked exceptions it
 * throws nested in it. Its one other class, the package-private
 * {@code MachinePlayerProcess}, has a name no referee's own class in this
 * package is likely to have. Put the jar on the referee's classpath and the
 * engine binary where {@code MachinePlayer} looks for it.
 */
package antichess;
