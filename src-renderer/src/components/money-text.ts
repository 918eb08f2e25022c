/** Amounts for display, as the store words them (store/money-words.ts). */
export { amountText, moneyText } from '../store/money-words'
