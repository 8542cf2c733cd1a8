import { Injectable } from '@angular/core';
import toastly from 'toastly';

const toast = toastly.mixin({
  showCloseButton: true,
});

@Injectable({ providedIn: 'root' })
export class AlertService {
  custom = () => {
    return toast;
  };

  success(message: string, title?: string) {
    return toast.fire({
      title: title,
      text: message,
      type: 'success',
    });
  }

  error(message: string) {
    return toast.fire({ title: 'Oops...', text: message, type: 'error' });
  }
}
