/** Amounts for display, as the store words them (store/money-words.ts). */
export { amountText, moneyText, spokenMoney } from '../store/money-words'
