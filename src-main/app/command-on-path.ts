/**
 * Whether a program is installed: an executable file of that name in a folder of PATH, as the
 * shell's `command -v` finds it (POSIX "command", https://pubs.opengroup.org/onlinepubs/9799919799/utilities/command.html),
 * without starting a shell: each start asks this for socat, and a child process costs more than a
 * few file checks.
 */
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

export function commandOnPath(name: string, path: string = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter((folder) => folder !== '')
    .some((folder) => {
      const file = join(folder, name)
      try {
        accessSync(file, constants.X_OK)
        return statSync(file).isFile()
      } catch {
        return false
      }
    })
}
