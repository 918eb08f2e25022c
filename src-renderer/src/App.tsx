/** The cashier UI's root. The screens arrive with the cashier app; this shell shows who we are. */
export function App() {
  return (
    <main>
      <h1>pos-agent</h1>
      <p>Cashier screens are not built yet.</p>
    </main>
  )
}
