// The host check scripts, included as text by the build (host-check/raw-text.js) and by jest (tests/setup/raw-text.js).
declare module '*.sh' {
  const text: string;
  export default text;
}

declare module '*.ps1' {
  const text: string;
  export default text;
}
