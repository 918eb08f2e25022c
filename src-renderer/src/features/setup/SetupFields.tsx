/** The setup form's fields, grouped, each with its label, a hint and the problem found with it. */
import type { SetupField, SetupForm, SetupProblems } from '../../../../src-shared/setup-form'

interface FieldSpec {
  name: SetupField
  label: string
  hint?: string
  secret?: boolean
  optional?: boolean
}

export const HOST_FIELDS: FieldSpec[] = [
  { name: 'offlineBaseUrl', label: 'Offline payments address', hint: 'From your acquirer. Starts with https://' },
  { name: 'baseUrl', label: 'Other payments address', hint: 'From your acquirer. Starts with https://' },
  { name: 'aid', label: 'Acquirer id' },
  { name: 'signingKey', label: 'Signing key', hint: '32 characters from your acquirer. It is never shown again.', secret: true },
  {
    name: 'caFile',
    label: 'Extra certificate file',
    hint: 'Only if your acquirer gave you one: its full path on this computer.',
    optional: true,
  },
]

export const STORE_FIELDS: FieldSpec[] = [
  { name: 'storeId', label: 'Store id' },
  { name: 'terminalId', label: 'Terminal id' },
  { name: 'merchantId', label: 'Merchant id' },
  { name: 'storeName', label: 'Store name', hint: 'Printed on receipts.', optional: true },
  { name: 'storeAddress1', label: 'Address, first line', optional: true },
  { name: 'storeAddress2', label: 'Address, second line', optional: true },
  { name: 'storeAddress3', label: 'Address, third line', optional: true },
  { name: 'currency', label: 'Currency', hint: 'Three letters, such as USD or EUR.' },
]

export const MANAGER_FIELDS: FieldSpec[] = [
  { name: 'managerId', label: 'Manager number', hint: '1 to 16 letters or digits, used to sign in.' },
  { name: 'managerName', label: 'Manager name' },
  { name: 'managerPin', label: 'Manager PIN', hint: '4 to 8 digits.', secret: true },
]

export const APPROVER_FIELDS: FieldSpec[] = [
  { name: 'approverId', label: 'Your manager number' },
  { name: 'approverPin', label: 'Your manager PIN', secret: true },
]

interface GroupProps {
  title: string
  fields: FieldSpec[]
  form: SetupForm
  problems: SetupProblems
  onChange: (name: SetupField, value: string) => void
  intro?: string
}

export function FieldGroup({ title, fields, form, problems, onChange, intro }: GroupProps) {
  return (
    <fieldset className="setup-group">
      <legend>{title}</legend>
      {intro && <p className="hint">{intro}</p>}
      {fields.map((field) => {
        const id = `setup-${field.name}`
        const problem = problems[field.name]
        const described = [field.hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ')
        return (
          <div className="setup-field" key={field.name}>
            <label htmlFor={id}>
              {field.label}
              {field.optional ? ' (optional)' : ''}
            </label>
            <input
              id={id}
              name={field.name}
              type={field.secret ? 'password' : 'text'}
              autoComplete={field.secret ? 'new-password' : 'off'}
              inputMode={field.name.endsWith('Pin') ? 'numeric' : undefined}
              value={form[field.name] ?? ''}
              aria-invalid={problem ? true : undefined}
              aria-describedby={described || undefined}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
            {field.hint && (
              <p id={`${id}-hint`} className="hint">
                {field.hint}
              </p>
            )}
            {problem && (
              <p id={`${id}-problem`} className="field-message field-error">
                {problem}
              </p>
            )}
          </div>
        )
      })}
    </fieldset>
  )
}
