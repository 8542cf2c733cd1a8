declare const colorkit: { attach(el: HTMLElement, options: { swatches: string[] }): void };

colorkit.attach(document.body, { swatches: ['#fff', '#000'] });
