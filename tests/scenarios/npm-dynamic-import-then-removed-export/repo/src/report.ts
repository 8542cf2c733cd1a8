type Report = (value: number) => void;

export function reportPerf(send?: Report): void {
  if (!send) {
    return;
  }
  import('perfmarks').then(({ getLCP, onCLS }) => {
    getLCP(send);
    onCLS(send);
  });
}
