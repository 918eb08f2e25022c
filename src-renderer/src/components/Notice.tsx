/** A one-line outcome after an action. Errors are announced at once (role=alert), successes politely. */
export interface NoticeProps {
  notice: { tone: 'ok' | 'info' | 'warn' | 'error'; text: string } | null
  testId?: string
}

export function NoticeLine({ notice, testId }: NoticeProps) {
  if (!notice) return null
  return (
    <p className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {notice.text}
    </p>
  )
}
