/** The door of the error mapping every entrance shares (the catalogue itself is src-shared/errors). */
export { describeZodError, toPosError } from './to-pos-error'
