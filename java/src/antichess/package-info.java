/**
 * The 6.170 antichess handout's machine player, {@link antichess.MachinePlayer},
 * backed by the antichess engine binary, and the unchecked exceptions it
 * throws. Put the jar on the referee's classpath and the engine binary
 * where {@code MachinePlayer} looks for it.
 */
package antichess;
