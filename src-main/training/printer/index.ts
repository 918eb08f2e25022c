/** A simulated ESC/POS receipt printer, on a pty pair or the network, for training mode and the tests. */
export { slipsOf, startNetworkPrinterSim, startPrinterSim, type PrinterSim, type PrinterSimState } from './printer-sim'
