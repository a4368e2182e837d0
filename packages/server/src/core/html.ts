/** Escapes text for HTML element content and quoted attribute values (mails, development pages). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
