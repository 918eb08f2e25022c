// Plain CSS files are imported for their side effect; Vite bundles them (no CSS modules here).
declare module '*.css'
