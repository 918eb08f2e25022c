/** Small terminal I/O pieces the commands share: reading stdin or a file, reading a secret without echo. */
import { readFileSync } from 'node:fs'

export async function readAllStdin(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks)
}

/** The body bytes from `--body-file` (or `-` for stdin), exactly as given. */
export async function readBody(file: string | undefined): Promise<Buffer> {
  if (file === undefined || file === '-') return readAllStdin()
  return readFileSync(file)
}

/**
 * A secret from standard input, never from an argument and never echoed: on a terminal the typed
 * characters are swallowed; from a pipe the first line is taken.
 */
export async function readSecret(prompt: string): Promise<string> {
  const stdin = process.stdin
  if (!stdin.isTTY) return (await readAllStdin()).toString('utf8').split(/\r?\n/)[0] ?? ''
  process.stderr.write(prompt)
  stdin.setRawMode(true)
  stdin.resume()
  stdin.setEncoding('utf8')
  return new Promise((resolve, reject) => {
    let secret = ''
    const onData = (text: string) => {
      for (const ch of text) {
        if (ch === '\r' || ch === '\n') {
          done()
          resolve(secret)
          return
        }
        if (ch === '\u0003') {
          done()
          reject(new Error('cancelled'))
          return
        }
        if (ch === '\u007f' || ch === '\b') secret = secret.slice(0, -1)
        else secret += ch
      }
    }
    const done = () => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write('\n')
    }
    stdin.on('data', onData)
  })
}

/**
 * A yes-or-no question on the terminal (stderr, the answer on stdin): true only for "yes". Without a
 * terminal to ask on (a pipe), no one can answer: false, and the command says to use `--yes`.
 */
export async function askYes(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`${question}\nno one to answer here (standard input is not a terminal): confirm with --yes\n`)
    return false
  }
  const { createInterface } = await import('node:readline/promises')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return (await rl.question(`${question} Type yes to go on: `)).trim().toLowerCase() === 'yes'
  } finally {
    rl.close()
  }
}

/**
 * Several secrets in a row (a key's old and new passphrase): on a terminal each is asked for without
 * echo; from a pipe they are its first lines, in order.
 */
export async function readSecrets(prompts: string[]): Promise<string[]> {
  if (!process.stdin.isTTY) {
    const lines = (await readAllStdin()).toString('utf8').split(/\r?\n/)
    return prompts.map((_, i) => lines[i] ?? '')
  }
  const out: string[] = []
  for (const prompt of prompts) out.push(await readSecret(prompt))
  return out
}
