import fetchkit, { HTTPError } from 'fetchkit';
import type { Response } from 'fetchkit';

export async function postJson(url: string, body: unknown): Promise<Response<string>> {
    try {
        return await fetchkit.post(url, { json: body });
    } catch (error) {
        if (error instanceof HTTPError) {
            console.error(`request failed: ${error.response.statusCode}`);
        }
        throw error;
    }
}
