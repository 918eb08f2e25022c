/** The agent's reasons in the screens' words: one rewriting, shared with the exports. */
export * from '../../../src-shared/sale/reason-words'
