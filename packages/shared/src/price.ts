/** Price display: flatAmount is in minor units; thousands are separated by a space. */
export function formatPrice(flatAmount: number, currencySymbol = ''): string {
  const major = flatAmount / 100;
  const [int, frac] = major.toFixed(2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const body = frac === '00' ? grouped : `${grouped}.${frac}`;
  return `${currencySymbol}${body}`;
}
