/** Hands an exported file to the browser as a download (a Blob URL, released right after). */
export interface FileToSave {
  filename: string
  contentType: string
  content: string
}

export function saveFile(file: FileToSave, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.contentType }))
  const link = doc.createElement('a')
  link.href = url
  link.download = file.filename
  link.rel = 'noopener'
  link.hidden = true
  doc.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
