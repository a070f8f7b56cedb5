declare module 'virtual:i18n-core/*' {
  const texts: Record<string, unknown>;
  export default texts;
}
