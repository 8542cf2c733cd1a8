document.getElementById('app').textContent = 'ready';
